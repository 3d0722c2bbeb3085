"""llm-do's output modes (seed 000): its event stream (``events``) and the non-interactive writers, events to
stderr and the final result to stdout (``output``)."""
