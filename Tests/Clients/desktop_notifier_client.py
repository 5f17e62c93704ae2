"""An app written with desktop-notifier (PyPI): four notifications, one after another.

Each offers a button, a reply field and a click (the `default` action). The next is sent once
the one before has had its callback, and each callback prints one line, so the test pressing
the wearable's keys reads exactly what the app heard, in order:

    sent <title>            the notification is at the server
    <title> pressed         the button
    <title> replied <text>  the reply field
    <title> clicked         the click
    <title> dismissed       closed by the user
    done                    after a last round trip to the server, so a late duplicate would show

A callback that fires twice, or one the server never triggers, makes the test fail.
"""

import asyncio
import sys

from desktop_notifier import Button, DesktopNotifier, ReplyField

TITLES = ["Press me", "Reply to me", "Open me", "Dismiss me"]


def say(line: str) -> None:
    print(line, flush=True)


async def main() -> None:
    notifier = DesktopNotifier(app_name="Relay client test")
    heard = asyncio.Event()

    def callback(line: str):
        def fire(*arguments: str) -> None:
            say(" ".join([line, *arguments]))
            heard.set()

        return fire

    for title in TITLES:
        heard.clear()
        await notifier.send(
            title=title,
            message="sent with desktop-notifier",
            buttons=[Button(title="Mark read", on_pressed=callback(f"{title} pressed"))],
            reply_field=ReplyField(title="Reply", on_replied=callback(f"{title} replied")),
            on_clicked=callback(f"{title} clicked"),
            on_dismissed=callback(f"{title} dismissed"),
        )
        say(f"sent {title}")
        await heard.wait()

    # A method call answered after every signal the server sent before it.
    await notifier.send(title="Done", message="the last round trip")
    say("done")


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(main(), timeout=float(sys.argv[1]) if len(sys.argv) > 1 else 120))
