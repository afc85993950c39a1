# not in UTC
s| author="fmucheck"|& generationDateAndTime="2023-10-09T20:45:22+02:00"|
