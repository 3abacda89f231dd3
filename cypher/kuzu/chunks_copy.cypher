COPY Chunk FROM $rows
