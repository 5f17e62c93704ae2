"""An app written with notify2 (PyPI, on dbus-python and GLib): two notifications.

notify2 calls a callback for every signal that names its notification, so a signal sent twice
prints twice. Lines printed:

    sent <title>                the notification is at the server
    <title> action <key>        ActionInvoked
    <title> closed              NotificationClosed
    done                        after a last round trip to the server

The first notification's button is pressed on the wrist (the phone then closes it, as the
specification says for a notification that is not resident); the second is dismissed there.
"""

import sys

import dbus.mainloop.glib
import notify2
from gi.repository import GLib

TITLES = ["Press later", "Dismiss now"]


def say(line: str) -> None:
    print(line, flush=True)


def main() -> None:
    notify2.init("Relay notify2 test", mainloop="glib")
    loop = GLib.MainLoop()
    pending = list(TITLES)
    shown = []

    def send_next() -> None:
        if not pending:
            # A method call answered after every signal the server sent before it.
            notify2.get_server_info()
            say("done")
            loop.quit()
            return
        title = pending.pop(0)
        notification = notify2.Notification(title, "sent with notify2")
        notification.add_action("later", "Later", lambda n, key: say(f"{n.summary} action {key}"))

        def closed(n) -> None:
            say(f"{n.summary} closed")
            # The next one once this one is gone from the server.
            GLib.idle_add(send_next)

        notification.connect("closed", closed)
        notification.show()
        shown.append(notification)  # notify2 keeps no reference of its own
        say(f"sent {title}")

    GLib.idle_add(send_next)
    GLib.timeout_add_seconds(int(sys.argv[1]) if len(sys.argv) > 1 else 120, lambda: sys.exit("notify2 client: timed out"))
    loop.run()


if __name__ == "__main__":
    main()
