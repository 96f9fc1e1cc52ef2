"""Models of the games app."""
