"""The web app through its test client, as a browser without JavaScript uses it."""
