# FMI 1.0: nominal="ten" is no xs:double.
s|nominal="10"|nominal="ten"|
