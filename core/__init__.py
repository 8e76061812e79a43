"""Small helpers every app may use (they import nothing from the apps)."""
