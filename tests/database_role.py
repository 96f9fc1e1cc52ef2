"""A PostgreSQL role of one test's own for the servers it starts, so that
the test can count their connections (``pg_stat_activity`` by role) and have
PostgreSQL refuse them (the role's connection limit), the server shared by
the whole test run left alone.

The role is an ordinary one (the embedded server's ``postgres`` is a
superuser, whom no connection limit binds) with the rights the site needs
on the test database's tables. A refusal is PostgreSQL's own: "too many
connections for role", the same SQLSTATE (53300) as a server out of
``max_connections``.
"""

from __future__ import annotations

import os
import time

from django.db import connection
from psycopg import sql

from tests.processes import database_url


class DatabaseRole:
    """``with DatabaseRole() as role:`` a login role with the rights of the
    site on the test database; ``role.url`` is its DATABASE_URL."""

    def __init__(self):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.name = f"pulka_test_{worker}"

    @property
    def url(self) -> str:
        return database_url({**connection.settings_dict, "USER": self.name})

    def __enter__(self) -> DatabaseRole:
        self.drop()  # one left behind by a test run that died
        role = sql.Identifier(self.name)
        with connection.cursor() as cursor:
            cursor.execute(sql.SQL("CREATE ROLE {} LOGIN").format(role))
            cursor.execute(
                sql.SQL("GRANT ALL ON ALL TABLES IN SCHEMA public TO {}").format(role)
            )
            cursor.execute(
                sql.SQL("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {}").format(
                    role
                )
            )
        return self

    def __exit__(self, *exc_info) -> None:
        self.drop()

    def drop(self) -> None:
        role = sql.Identifier(self.name)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [self.name])
            if cursor.fetchone() is None:
                return
            self.refuse()
            cursor.execute(sql.SQL("DROP OWNED BY {}").format(role))
            cursor.execute(sql.SQL("DROP ROLE {}").format(role))

    def connections(self) -> int:
        """The role's connections open now."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = %s",
                [self.name],
            )
            return cursor.fetchone()[0]

    def refuse(self) -> None:
        """PostgreSQL refuses every new connection of the role, and ends
        those it has (as a restart of the server would)."""
        self._limit(0)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE usename = %s",
                [self.name],
            )
        # A terminated backend takes a moment to go.
        limit = time.monotonic() + 10
        while self.connections():
            if time.monotonic() > limit:
                raise RuntimeError(f"{self.name}'s connections did not end")
            time.sleep(0.05)

    def admit(self) -> None:
        """PostgreSQL takes the role's connections again."""
        self._limit(-1)

    def _limit(self, limit: int) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                sql.SQL("ALTER ROLE {} CONNECTION LIMIT {}").format(
                    sql.Identifier(self.name), sql.Literal(limit)
                )
            )
