"""The HTTP boundary's types (docs/API.md), one module per concern. A score request, and the hand of a confirmation,
are checked by the scorer's parser alone, so the API refuses exactly what `fanshot score --json` refuses; their
models here only document them. Other request bodies are checked by their models; responses are described by
theirs."""
