"""The one error type of the dataset tools: a plain message naming the file (and line) at fault."""

from __future__ import annotations


class DatasetError(Exception):
    """A dataset cannot be read or written as asked; the message is meant for the user."""
