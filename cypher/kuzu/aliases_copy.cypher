COPY Alias FROM $rows
