// Placeholder: see Docs/ARCHITECTURE.md
