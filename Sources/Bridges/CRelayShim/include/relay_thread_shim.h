// Thread names: pthread_setname_np sits behind _GNU_SOURCE, which the Glibc module does not set.
#ifndef RELAY_THREAD_SHIM_H
#define RELAY_THREAD_SHIM_H

/// Names the calling thread (truncated to the kernel's 15 bytes), so that debuggers, `top -H`
/// and /proc/PID/task/TID/comm show it.
void relay_name_current_thread(const char *name);

#endif
