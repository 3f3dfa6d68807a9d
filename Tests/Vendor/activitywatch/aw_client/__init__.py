from .client import ActivityWatchClient

__all__ = ["ActivityWatchClient"]
