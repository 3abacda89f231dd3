COPY Document FROM $rows
