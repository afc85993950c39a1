# FMI 1.0: a tab in the normalizedString attribute version.
2,$s| version="1.0"| version="1.0\&#9;beta"|
