# generationDateAndTime with a time-zone offset instead of Z (a recommendation, G-11).
s| author="fmucheck"|& generationDateAndTime="2023-10-09T20:45:22+02:00"|
