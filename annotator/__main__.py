from annotator.cli.root import main

main()
