# FMI 1.0: generationDateAndTime in local time, without Z.
s| generationTool="fmucheck mdgen1"| generationTool="fmucheck mdgen1" generationDateAndTime="2010-01-26T12:00:00"|
