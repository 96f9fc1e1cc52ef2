"""How passwords are stored: Argon2id at OWASP's minimum cost.

Django's default, PBKDF2-SHA256 at a million iterations, takes about 0.4 CPU
seconds a sign-in; a node taking 200 sign-ins a minute then spends more
than a core of its two hashing, and every socket and page waits behind it
(benchmarks/players.py). Argon2id with 19 MiB of memory, 2 passes and one
lane (the OWASP Password Storage Cheat Sheet's first configuration) costs
about 30 ms and, being memory-hard, resists guessing on graphics cards
better than PBKDF2 does. Passwords stored under another hasher in
``PASSWORD_HASHERS`` still verify, and are stored again under this one at
their next sign-in.
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idPasswordHasher(Argon2PasswordHasher):
    """Django's Argon2id hasher with OWASP's minimum parameters."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
