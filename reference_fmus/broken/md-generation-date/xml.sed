# generationDateAndTime with a space instead of T (G-11).
s| author="fmucheck"|& generationDateAndTime="2023-10-09 20:45:22.102681"|
