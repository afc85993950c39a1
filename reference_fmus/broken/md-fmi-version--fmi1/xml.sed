# FMI 1.0: fmiVersion "1.0.1" (the 1.0.1 documents keep fmiVersion fixed at "1.0").
s|fmiVersion="1.0"|fmiVersion="1.0.1"|
