"""All Fives scorekeeper: a referee engine for the dominoes points game and its web app."""
