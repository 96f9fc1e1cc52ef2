"""The ground floor every app stands on: typed refusals and their API form,
pagination, the read-only admin bases, text filters. It imports no app and
nothing of ``config`` (the assembly point above every app)."""
