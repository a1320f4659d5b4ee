"""The web layer: models, forms, views and command-line commands around the referee."""
