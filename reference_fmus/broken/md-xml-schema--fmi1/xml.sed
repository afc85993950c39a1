# FMI 1.0: an FMI 2.0 attribute (copyright) on the 1.0 root (B-105).
s| author="fmucheck"| author="fmucheck" copyright="fmucheck"|
