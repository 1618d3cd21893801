from simlab.cli import main

main()
