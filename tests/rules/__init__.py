"""The rules engine without Flask: worked examples, every rule id, property tests."""
