"""Web Push notifications (docs/architecture.md, "Push notifications"): the VAPID key pair
(``keys``), the browsers' subscriptions and the queue of pushes in the database (``models``,
``store``), which endpoints may be posted to (``endpoints``), the sender that delivers the
queue with retries (``sender``) and the routes (``routes``)."""
