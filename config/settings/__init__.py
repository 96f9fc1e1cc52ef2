"""Settings modules: base (shared), dev, test and production."""
