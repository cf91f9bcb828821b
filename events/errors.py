"""The error of every event app's operations."""


class EventError(Exception):
    """An operation on an event that cannot be done; nothing was changed. `.message` says why."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
