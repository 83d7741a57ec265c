"""Languages: gettext catalogues, words every game shares, what is left untranslated."""
