#!/usr/bin/python3
"""free_ports.py N - prints a base port B such that B .. B+N-1 are free UDP ports on 127.0.0.1.

Two clones (or two helpers) running the suites at once must not collide on fixed ports:
the base is drawn at random from 20000-59990 and every port is bound once to check it."""
import random
import socket
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
for _ in range(500):
    base = random.randrange(20000, 60000 - n, 10)
    socks = []
    try:
        for i in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            socks.append(s)
            s.bind(("127.0.0.1", base + i))
        print(base)
        sys.exit(0)
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
sys.exit("no free port range found")
