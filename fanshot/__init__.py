"""Fanshot command line: one `fanshot` command whose subcommands live beside the code they drive."""
