import NIOCore

/// A task executor that runs jobs on a NIO event loop's thread.
///
/// A connection's handling that prefers it runs on the thread that reads and writes the
/// socket: a frame read, its handling and the reply written need no switch between threads,
/// and a command from elsewhere needs one. Each switch costs a wake-up of a sleeping thread,
/// which at a notification every few hundred milliseconds is most of the latency.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension FramedConnection {
    /// The connection's event loop as a task executor: work that prefers it
    /// (`withTaskExecutorPreference`) runs on the thread that reads and writes the connection.
    /// That work must not wait on the thread for something that needs the same thread.
    public var taskExecutor: any TaskExecutor { EventLoopTaskExecutor(channel.channel.eventLoop) }
}
