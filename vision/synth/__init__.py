"""A renderer of synthetic Qwirkle tables: training data for the classifier, test boards, demos."""
