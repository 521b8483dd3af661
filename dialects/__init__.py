"""xlir's dialects, one module (or package) per dialect."""
