"""The stored data, below every page: the database and its models, the games store (loading a
game by replaying its events, changing it in one locked transaction), the replay cache, the
clubs store, and the doors (a game's keys, and what a browser remembers of its games and
clubs). Nothing here renders a page."""
