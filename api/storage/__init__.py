"""Storage, apart from the HTTP shell: the records' database and its migrations, the image store, games and their
live events, model versions and their files, and the dataset export that reads them back."""
