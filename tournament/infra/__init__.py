"""What runs the app and is no page, form or job: middleware, database routers and backend, the cache, checks, logs."""
