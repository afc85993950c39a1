# FMI 1.0: generationDateAndTime that is no xs:dateTime.
s| generationTool="fmucheck mdgen1"| generationTool="fmucheck mdgen1" generationDateAndTime="yesterday"|
