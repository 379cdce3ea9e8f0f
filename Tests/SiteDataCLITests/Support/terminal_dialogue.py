#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal and answers its prompts, as a person
at a terminal would (stdlib only; for the `sitedata oauth login` prompt tests).

Usage: terminal_dialogue.py PROMPT ANSWER [PROMPT ANSWER ...] -- COMMAND [ARG ...]

Waits for each PROMPT (a substring of what the command has written to the
terminal so far, after the previous prompt), then types ANSWER and a newline;
after the last one, reads to the end. Everything the terminal showed (stdout
and stderr together, with what the terminal echoed) goes to stdout; the exit
status is the command's. A prompt that does not come within 60 s ends it with
status 99 (the test then fails, showing what the terminal had).
"""
import os
import pty
import select
import sys


def main():
    split = sys.argv.index("--")
    pairs = sys.argv[1:split]
    command = sys.argv[split + 1:]
    pid, master = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    shown = b""
    seen = 0

    def read(timeout):
        nonlocal shown
        ready, _, _ = select.select([master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            return None
        if not chunk:
            return None
        shown += chunk
        return True

    for prompt, answer in zip(pairs[0::2], pairs[1::2]):
        while prompt.encode() not in shown[seen:]:
            if not read(60):
                sys.stdout.buffer.write(shown)
                sys.exit(99)
        seen = shown.index(prompt.encode(), seen) + len(prompt)
        os.write(master, answer.encode() + b"\n")
    while read(60):
        pass
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(shown)
    sys.exit(os.waitstatus_to_exitcode(status))


main()
