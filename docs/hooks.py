"""MkDocs hook: adds the reference pages generated from the code (`boardlab.reference.pages`)."""

from mkdocs.structure.files import File


def on_files(files, config):
    from boardlab.reference import pages

    for path, text in pages().items():
        files.append(File.generated(config, path, content=text))
    return files
