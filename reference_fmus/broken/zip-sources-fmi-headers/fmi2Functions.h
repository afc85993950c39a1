/* fixture: a copy of the standard header shipped in sources/ (should not be) */
