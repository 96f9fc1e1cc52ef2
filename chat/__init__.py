"""Chat at the tables and in the lobby: rooms, quick phrases, limits, the
word filter, personal and operators' mutes, and reports (docs/chat.md)."""
