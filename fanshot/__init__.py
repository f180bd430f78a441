"""Fanshot command line: one `fanshot` command whose subcommands live beside the code they drive."""

from pkgutil import extend_path

# Run from the repository's root (`python -m pytest`), this folder shadows the strict editable install's `fanshot`
# (build/__editable__.*), which alone holds the sibling folders as subpackages (`fanshot.api`, ...): join it.
__path__ = extend_path(__path__, __name__)
