"""Site-wide concerns, on top of every area: security headers and cookies, rate limits,
compression, error pages, refused forms brought back, the home-screen app (manifest, service
worker, offline page), times in the reader's zone, and the command line."""
