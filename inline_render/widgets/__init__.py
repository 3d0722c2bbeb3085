"""The viewport's interactive parts, pure: the composer and its editing, dialogs (confirm, prompt, pick),
forms, the approval choices, and completion (prompt_toolkit completers the shell asks)."""
