from analyzer.cli.main import main

main()
