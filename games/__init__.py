"""Live play: tables, seats, games and their event records.

The rules engine lives in the `joker` subpackage and is pure Python; this
package's top level stays free of imports so that importing the engine never
pulls in Django.
"""
