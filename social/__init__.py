"""Players among themselves: blocks, friends and their presence,
invitations to a table (docs/social.md)."""
