"""Admin registrations of the ratings app."""
