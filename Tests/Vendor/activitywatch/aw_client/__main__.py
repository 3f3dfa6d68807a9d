from aw_client import cli

cli.main()
