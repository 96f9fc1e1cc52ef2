"""The demo a fresh local install starts with (``manage.py seed_demo``):
players, open tables, finished ranked games, tournaments. It sits above every
app and seeds each through its services, as real play does."""
