"""The table app and the command line: Flask pages, the JSON API, storage and the live loop."""
