"""Admin registrations of the tournaments app."""
